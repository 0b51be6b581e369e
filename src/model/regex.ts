/**
 * A regular expression written as a raw template over several lines, so that a long pattern fits the line width:
 * a line break and the spaces after it are not part of the pattern, everything else is (backslashes stay as in a
 * regex literal). Substitutions are inserted as they are.
 *
 * @example
 * rx('gi')`\bignore\s+
 *     (?:all\s+)?instructions\b`.source // '\\bignore\\s+(?:all\\s+)?instructions\\b'
 */
export const rx =
    (flags: string) =>
    (pattern: TemplateStringsArray, ...parts: string[]): RegExp =>
        new RegExp(String.raw({ raw: pattern.raw.map((piece) => piece.replace(/\n */g, '')) }, ...parts), flags)
