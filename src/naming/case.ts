/** `whenToUseClarity` → `when-to-use-clarity`; runs of anything else become one hyphen. */
export function kebabCase(text: string): string {
    return text
        .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
        .replace(/[^A-Za-z0-9]+/g, '-')
        .replace(/^-|-$/g, '')
        .toLowerCase()
}
