// `flowmcp-grading/node`: what a Node host needs beside the library to run schema code away from its own process.
// The FlowMCP runtime reads the process-wide `fetch`; in a child process its `fetch` is the child's, and every request
// comes back over the protocol to the host's own HttpPort (recorded, replayed or live), so nothing of the host's
// globals is touched and the host's own `fetch` calls never meet the grading's.

export { runtimePortFromChildProcess } from './process.js'
export type { ChildRuntimeOptions, ChildRuntimePort } from './process.js'
export type { ChildNetwork } from './protocol.js'
