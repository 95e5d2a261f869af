import { printableJson } from '../../diagnostics/printable';
import { printableYaml, READER_SAFE } from '../../yaml/yaml-readers';
import { fastYaml } from '../../yaml/fast-yaml';

/**
 * Renders a config file read by a Go component. Antrea decodes with YAML 1.1 rules, where plain
 * `no`, `on` or `0400` are not strings, so the 1.1 schema decides what needs quotes.
 */
export const renderYamlConfig = (data: unknown): string => fastYaml(data, 'as-is') ?? printableYaml(data, { ...READER_SAFE, lineWidth: 0 });

/** Renders a JSON config file (the CNI conflist) with a trailing newline, its strings printable (printable.ts). */
export const renderJsonConfig = (data: unknown): string => `${printableJson(JSON.stringify(data, null, 2))}\n`;
