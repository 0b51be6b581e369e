/**
 * A regular expression written as a raw template over several lines, so that a long pattern fits the line width:
 * each line break and the spaces after it are dropped (a pattern holds no literal line break; `\n` stays an escape),
 * everything else is the pattern as a regex literal would write it, substitutions included.
 *
 * @example
 * rx('gi')`\bignore\s+
 *     (?:all\s+)?instructions\b`.source // '\\bignore\\s+(?:all\\s+)?instructions\\b'
 */
export const rx =
    (flags: string) =>
    (pattern: TemplateStringsArray, ...parts: string[]): RegExp =>
        new RegExp(String.raw(pattern, ...parts).replace(/\n */g, ''), flags)
