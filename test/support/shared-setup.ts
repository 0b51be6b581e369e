import { sharedReport } from './shared.js'

// Runs once before the suite: a clone without ../shared says in one line what it does not run (and
// why), and a CI run without it fails before any test starts.
export default function setup(): void {
    const line = sharedReport()
    if (line !== null) process.stderr.write(`${line}\n`)
}
