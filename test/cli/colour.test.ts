import { describe, expect, it } from 'vitest'
import { colourEnabled, paint } from '../../src/cli/colour.js'

const report = [
    'schema              grade     schemaGrade  status',
    'a.b                 B 4.43    B            stable',
    'c.d                 REJECTED  REJECTED     rejected',
    '  x.mjs (a.b): ✖ 2 problems (0 errors, 1 warning, 1 note)',
    '    12:9     warning  SCH-WARN-003  tool x has 1 tests',
    '    5:5      note     HINT-single-test  say more',
    ''
].join('\n')

describe('colours as eslint, vitest and chalk decide them', () => {
    it('are on for a terminal, off when piped or under NO_COLOR, forced by FORCE_COLOR', () => {
        expect(colourEnabled({}, true)).toBe(true)
        expect(colourEnabled({}, false)).toBe(false)
        expect(colourEnabled({ NO_COLOR: '1' }, true)).toBe(false)
        // An empty NO_COLOR does not count (no-color.org).
        expect(colourEnabled({ NO_COLOR: '' }, true)).toBe(true)
        expect(colourEnabled({ FORCE_COLOR: '1' }, false)).toBe(true)
        expect(colourEnabled({ FORCE_COLOR: '1', NO_COLOR: '1' }, false)).toBe(true)
        expect(colourEnabled({ FORCE_COLOR: '0' }, true)).toBe(false)
        expect(colourEnabled({ FORCE_COLOR: 'false' }, true)).toBe(false)
    })

    it('colour the severities, the counts and the grades, and change no word', () => {
        const painted = paint(report, true)
        expect(painted).toContain('\u001b[33mwarning\u001b[39m')
        expect(painted).toContain('\u001b[2mnote\u001b[22m')
        expect(painted).toContain('\u001b[32mB 4.43\u001b[39m')
        expect(painted).toContain('\u001b[31mREJECTED\u001b[39m')
        expect(painted.replace(/\u001b\[\d+m/g, '')).toBe(report)
    })

    it('leave the text as it is when off (a failing case: nothing to paint)', () => {
        expect(paint(report, false)).toBe(report)
        expect(paint('', true)).toBe('')
    })
})
