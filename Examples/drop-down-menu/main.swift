import ContainmentExamples
import TunnelContainment

// Three coloured controllers behind a drop-down menu: m opens it, ↑/↓ and return (or 1–3)
// select, q quits. The panel shows the lifecycle log.
let (console, log) = ExampleRunner.lifecycleConsole()
let menu = MenuViewController.withThreeColors()
await ExampleRunner.run(menu, console: console, heading: "lifecycle") { menu.handle($0) }
log.stop()
