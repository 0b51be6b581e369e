declare const __PACKAGE_VERSION__: string

/** The Grading-Spec document set this library implements (01-model ⚠ A1). */
export const GRADING_SPEC_VERSION = 'gradingSpec/2.0.1'
/** Scoring System version: bumps when the score for the same input changes. */
export const SCORING_SYSTEM_VERSION = 'scoringSystem/1.0.0'
/** Grading System version: bumps when the grade for the same scores changes. */
export const GRADING_SYSTEM_VERSION = 'gradingSystem/1.0.0'
/** Scoring transport protocol (Schemas-Spec v4.2.0 chapter 22). */
export const SCORING_PROTOCOL_VERSION = 'v1'
/** This package's own version, injected from package.json at build time. */
export const PACKAGE_VERSION: string = __PACKAGE_VERSION__

/** `^scoringSystem/\d+\.\d+\.\d+$` (chapter 07). */
export const SCORING_SYSTEM_REGEX = /^scoringSystem\/\d+\.\d+\.\d+$/
/** `^gradingSystem/\d+\.\d+\.\d+$` (chapter 07). */
export const GRADING_SYSTEM_REGEX = /^gradingSystem\/\d+\.\d+\.\d+$/
/** `^gradingSpec/\d+\.\d+\.\d+$` (by analogy, 01-model §1.2). */
export const GRADING_SPEC_REGEX = /^gradingSpec\/\d+\.\d+\.\d+$/
/** FlowMCP schema version carried by grading entries: `^flowmcp/4\.[0-9]+\.[0-9]+$`. */
export const FLOWMCP_VERSION_REGEX = /^flowmcp\/4\.[0-9]+\.[0-9]+$/

/** The version strings of every independent namespace plus this package's version. */
export interface VersionInfo {
    readonly gradingSpec: string
    readonly scoringSystem: string
    readonly gradingSystem: string
    readonly scoringProtocol: string
    readonly packageVersion: string
}

/**
 * Returns the version of each independent namespace. None is derived from another.
 * @returns `{ gradingSpec, scoringSystem, gradingSystem, scoringProtocol, packageVersion }`
 * @example getVersion().gradingSystem // 'gradingSystem/1.0.0'
 */
export function getVersion(): VersionInfo {
    return {
        gradingSpec: GRADING_SPEC_VERSION,
        scoringSystem: SCORING_SYSTEM_VERSION,
        gradingSystem: GRADING_SYSTEM_VERSION,
        scoringProtocol: SCORING_PROTOCOL_VERSION,
        packageVersion: PACKAGE_VERSION
    }
}

/** Same major.minor line (2.0.0 and 2.0.1 read alike, 01-model ⚠ A1). */
export function sameMinorLine(a: string, b: string): boolean {
    const line = (s: string): string | null => /^([A-Za-z]+)\/(\d+)\.(\d+)\.\d+$/.exec(s)?.slice(1, 4).join('.') ?? null
    const la = line(a)
    return la !== null && la === line(b)
}
