/** `1 file`, `2 files`: result lines that read right. */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
