/**
 * Folding text to a confusable skeleton before the injection rules match it, after Unicode TR39
 * (Security Mechanisms, §4 "Confusable Detection"): "іgnore" written with a Cyrillic і, "ＳＹＳＴＥＭ" in
 * fullwidth letters or "## System꞉" with a modifier-letter colon read as the Latin text they imitate.
 *
 * Not the full confusables.txt (about 6,500 mappings, some 30 KB gzip, over the package's size
 * budget): NFKC first (fullwidth and mathematical Latin, ligatures, compatibility punctuation),
 * then a table of the lookalikes that matter to rules written in ASCII: the Cyrillic, Greek,
 * Armenian and Latin-extension letters TR39 maps to a Latin letter, and the punctuation the fence
 * and role-header rules need (colons, hyphens, angle brackets, backticks, equals signs). NFKC may
 * change lengths but never adds or drops a newline, so line numbers found on the folded text are
 * the lines of the original.
 */

// Pairs of (lookalike, what it folds to), one pair per two characters; all in the Basic Multilingual Plane.
const PAIRS =
    // Cyrillic lower case
    'аaсcԁdеeһhіiјjӏlոnоoрpԛqѕsսuνvԝwхxуyҽeɡgʏyһhѵvԍGԌGԀd' +
    // Cyrillic upper case
    'АAВBСCЕEНHІIЈJКKМMОOРPЅSТTХXУYҮYԚQԜWӀlЗ3' +
    // Greek lower and upper case
    'αaοoρpιiκkυuχxγyνvϲcϳjΑAΒBΕEΖZΗHΙIΚKΜMΝNΟOΡPΤTΥYΧXϹCϺM' +
    // Armenian and Latin extensions
    'օoսuոnհhզqɑaɩiıiȷjǀlɒaʋuƅbꜱsꞇtᴀAᴄcᴏoᴠvᴡwᴢz' +
    // Punctuation: colons, hyphens, angle brackets, backticks, equals, slash, number sign
    '꞉:∶:׃:ː:˸:ꓽ:‐-‑-‒-–-⁃-−-˗-﹣-ᐸ<˂<‹<ᐳ>˃>›>ˋ`‵`ʻ`꞊=᐀=⁄/∕/╱/⧸/'

const FOLD: ReadonlyMap<number, string> = /* @__PURE__ */ (() => {
    const map = new Map<number, string>()
    for (let i = 0; i + 1 < PAIRS.length; i += 2) map.set(PAIRS.charCodeAt(i), PAIRS[i + 1] as string)
    return map
})()

/** A text of ASCII only has nothing to fold (the common case: most schema strings). */
const NON_ASCII = /[^\u0000-\u007f]/

/** Each lookalike of the table replaced by its ASCII character (one code unit for one). */
function mapTable(text: string): string {
    let out = ''
    let from = 0
    for (let i = 0; i < text.length; i += 1) {
        const folded = FOLD.get(text.charCodeAt(i))
        if (folded === undefined) continue
        out += text.slice(from, i) + folded
        from = i + 1
    }
    return from === 0 ? text : out + text.slice(from)
}

/**
 * The confusable skeleton of `text`, for matching only (never shown as the graded party's words):
 * the table, NFKC, the table again (NFKC turns a few lookalikes into others, e.g. U+03F9 into Σ, and
 * makes some from compatibility forms). ASCII text is returned as it is.
 * @example foldConfusables('\u0456gnore') // 'ignore'
 */
export function foldConfusables(text: string): string {
    if (!NON_ASCII.test(text)) return text
    return mapTable(mapTable(text).normalize('NFKC'))
}
