// Regenerates docs/errors.md from the built catalogue (run after `npm run build`).
import { writeFileSync } from 'node:fs'
import { ErrorCodes } from '../dist/index.js'

writeFileSync(new URL('../docs/errors.md', import.meta.url), ErrorCodes.toMarkdown().markdown)
process.stdout.write('docs/errors.md written\n')
