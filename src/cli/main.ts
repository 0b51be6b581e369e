export function run() {}
