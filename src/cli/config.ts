import { existsSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { FixRules } from '../index.js'
import { createIssue } from '../errors/issue.js'
import { parseJsonText } from '../json/guard.js'
import { CONFIG_KEYS, optionOf, type ConfigSpec } from './options.js'
import { isObject } from '../model/object.js'
import { closest } from './suggest.js'

/** The name of the config file, looked for in the working folder and its parents up to the repository root. */
export const CONFIG_FILE = 'flowmcp-grading.config.json'

/** A config file read and checked: option values keyed as parseArgs keys them, and the rules. */
export interface LoadedConfig {
    readonly file: string | null
    readonly values: Readonly<Record<string, string | boolean | string[]>>
    readonly rules: Readonly<Record<string, unknown>> | undefined
}

/**
 * The config file of `cwd`: in it or a parent, stopping at the folder that holds `.git` (the repository root); null
 * when none.
 */
export function findConfig(cwd: string): string | null {
    let dir = resolve(cwd)
    const seen: string[] = []
    for (;;) {
        seen.push(dir)
        const candidate = join(dir, CONFIG_FILE)
        if (existsSync(candidate)) return candidate
        if (existsSync(join(dir, '.git')) || dirname(dir) === dir) break
        dir = dirname(dir)
    }
    // Outside a repository only the working folder counts: a parent's file would be a stranger's.
    return existsSync(join(seen[0] as string, CONFIG_FILE)) ? join(seen[0] as string, CONFIG_FILE) : null
}

/** What is wrong with one key's value, or null. */
function problemOf(key: string, value: unknown): string | null {
    const spec = CONFIG_KEYS[key]
    if (spec === undefined) {
        const near = closest(key, Object.keys(CONFIG_KEYS))
        const meant = near !== null ? `; did you mean ${JSON.stringify(near)}?` : ''
        return `unknown key ${JSON.stringify(key).slice(0, 40)}; the keys are long options in camelCase, and rules${meant}`
    }
    if (spec.values !== undefined && !spec.values.includes(value as string))
        return `${key} must be one of ${spec.values.map((v) => JSON.stringify(v)).join(', ')}, got ${(JSON.stringify(value) ?? String(value)).slice(0, 40)}`
    const ok =
        spec.kind === 'boolean'
            ? typeof value === 'boolean'
            : spec.kind === 'number'
              ? typeof value === 'number' && Number.isFinite(value) && value > 0
              : spec.kind === 'strings'
                ? Array.isArray(value) && value.every((v) => typeof v === 'string')
                : typeof value === 'string' && value.length > 0
    const expected =
        spec.kind === 'strings'
            ? 'an array of strings'
            : spec.kind === 'number'
              ? 'a positive number'
              : spec.kind === 'boolean'
                ? 'true or false'
                : 'a non-empty string'
    return ok ? null : `${key} must be ${expected}, got ${(JSON.stringify(value) ?? String(value)).slice(0, 40)}`
}

/**
 * Reads and checks a config file: every problem in words (a usage error, exit 2), or the values as
 * parseArgs would give them (paths resolved from the file's folder) and the rules.
 */
export function loadConfig(file: string): { config: LoadedConfig | null; errors: string[] } {
    let text: string
    try {
        if (!statSync(file).isFile()) return { config: null, errors: [`the config file ${file} is not a file`] }
        text = readFileSync(file, 'utf8')
    } catch (cause) {
        return {
            config: null,
            errors: [`cannot read the config file ${file}: ${cause instanceof Error ? cause.message : String(cause)}`]
        }
    }
    const invalid = (detail: string): string => `CFG-004: ${createIssue('CFG-004', '', { file, detail }).message}`
    const parsed = parseJsonText(text)
    if (!isObject(parsed.value)) {
        return {
            config: null,
            errors: [invalid(parsed.errors[0] !== undefined ? parsed.errors[0].message : 'not a JSON object')]
        }
    }
    const raw = parsed.value as Record<string, unknown>
    const errors: string[] = []
    const values: Record<string, string | boolean | string[]> = {}
    for (const [key, value] of Object.entries(raw)) {
        if (key === '$schema' || key === 'rules') continue
        const problem = problemOf(key, value)
        if (problem !== null) {
            errors.push(invalid(problem))
            continue
        }
        const spec = CONFIG_KEYS[key] as ConfigSpec
        const option = optionOf(key)
        values[option] =
            spec.path === true
                ? resolve(dirname(file), value as string)
                : spec.kind === 'number'
                  ? String(value)
                  : (value as string | boolean | string[])
    }
    errors.push(...FixRules.check({ rules: raw.rules }).errors.map((e) => `${e.code}: ${file}: ${e.message}`))
    return errors.length > 0
        ? { config: null, errors }
        : { config: { file, values, rules: raw.rules as Record<string, unknown> | undefined }, errors: [] }
}
