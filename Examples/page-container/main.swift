import ContainmentExamples
import TunnelContainment

// Five pages; ← and → turn them with a curl; q quits. The panel shows the lifecycle log.
let (console, log) = ExampleRunner.lifecycleConsole()
let container = PageContainerViewController.withFivePages()
await ExampleRunner.run(container, console: console, heading: "lifecycle") { container.handle($0) }
log.stop()
