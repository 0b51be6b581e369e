import { describe, expect, it } from 'vitest'
import { SelectionSkills } from '../../src/index.js'
import { namesSkill } from '../../src/selection/skills.js'

const skill = (name: string, level: 'L1' | 'L2' | 'L3', text: string) => ({ name, level, text })

describe('namesSkill (02 ⚠ B16 verbatim match)', () => {
    it.each([
        ['use price-entry first', 'price-entry', true],
        ['see {{skill:price-topic}}', 'price-topic', true],
        ['use price-entry first', 'price', false],
        ['Price-Entry', 'price-entry', false],
        ["name: 'price-topic'", 'price-topic', true]
    ])('%j names %s: %s', (text, name, expected) => {
        expect(namesSkill(text, name)).toBe(expected)
    })
})

describe('SelectionSkills.crossReferences (ch. 13, 02 §11.3, ⚠ B13)', () => {
    it('derives the predecessors: L2 ⇐ every L1, L3 ⇐ the L2 skills that name it', () => {
        const result = SelectionSkills.crossReferences({
            skills: [
                skill('entry', 'L1', 'topics: topic-a, topic-b'),
                skill('topic-a', 'L2', 'use case-x'),
                skill('topic-b', 'L2', 'use case-x and {{skill:case-y}}'),
                skill('case-x', 'L3', '')
            ]
        })
        expect(result.errors).toEqual([])
        expect(result.predecessors).toEqual({
            entry: [],
            'topic-a': ['entry'],
            'topic-b': ['entry'],
            'case-x': ['topic-a', 'topic-b']
        })
    })

    it('reports Rule A (SKC-001) per missing L2 name and Rule B (SKC-002) per orphan L3', () => {
        const result = SelectionSkills.crossReferences({
            skills: [
                skill('entry', 'L1', 'topic-a only'),
                skill('topic-a', 'L2', ''),
                skill('topic-b', 'L2', ''),
                skill('case-x', 'L3', '')
            ]
        })
        expect(result.errors.map((e) => [e.code, e.path, e.message])).toEqual([
            ['SKC-001', '/skills/0/text', 'L1 skill entry does not name L2 skill topic-b (Rule A)'],
            ['SKC-002', '/skills/3', 'L3 skill case-x is not named by any L2 skill (Rule B)']
        ])
        expect(Object.keys(result.violations)).toEqual(['entry', 'case-x'])
    })

    it('reports more than four skills as SKL-018 and unusable input as SEL-002', () => {
        const five = ['a', 'b', 'c', 'd', 'e'].map((n) => skill(n, 'L1', ''))
        expect(SelectionSkills.crossReferences({ skills: five }).errors.map((e) => e.code)).toEqual(['SKL-018'])
        expect(SelectionSkills.crossReferences({ skills: 'x' }).errors[0]?.code).toBe('SEL-002')
        expect(
            SelectionSkills.crossReferences({ skills: [{ name: 'a', level: 'L4', text: '' }] }).errors[0]
        ).toMatchObject({ code: 'SEL-002', path: '/skills/0' })
    })
})
