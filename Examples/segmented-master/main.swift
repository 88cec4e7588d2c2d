import ContainmentExamples
import TunnelContainment

// Summary and Sessions behind a segmented control: 1/2 (or ←/→, tab) switch, ↑/↓ move in the
// list, q quits. `--without-containment` only adds the children's views, and the appearance
// messages stop arriving.
let withoutContainment = CommandLine.arguments.dropFirst().contains("--without-containment")
let console = Console()
let master = MasterViewController(console: console, usesContainment: !withoutContainment)
let heading = withoutContainment ? "messages (views added without containment calls)" : "messages"
await ExampleRunner.run(master, console: console, heading: heading) { master.handle($0) }
