// Compares the Inspector's --strict findings (its --format json envelope) with the
// baseline: node compare.mjs REPORT BASELINE. Exits 1 on a finding the baseline does
// not list, or a listed one that is gone (so the baseline stays exact).
import { readFileSync } from "node:fs";

const [reportPath, baselinePath] = process.argv.slice(2);
const report = JSON.parse(readFileSync(reportPath, "utf8"));
const baseline = JSON.parse(readFileSync(baselinePath, "utf8"));
const tools = report.result?.tools;
if (!Array.isArray(tools) || tools.length === 0) {
  console.error("portability: the Inspector listed no tools");
  process.exit(2);
}

const key = (tool, f) => `${tool} ${f.rule} ${f.schema}.${f.path}`;
const found = new Set();
for (const { toolName, findings } of report.schemaFindings ?? []) {
  for (const f of findings) found.add(key(toolName, f));
}
const listed = new Map();
for (const entry of baseline.findings) {
  if (!entry.reason) {
    console.error(`portability: baseline entry without a reason: ${JSON.stringify(entry)}`);
    process.exit(2);
  }
  listed.set(`${entry.tool} ${entry.rule} ${entry.path}`, entry.reason);
}

const unlisted = [...found].filter((k) => !listed.has(k)).sort();
const gone = [...listed.keys()].filter((k) => !found.has(k)).sort();
for (const k of unlisted) console.error(`new finding (fix the schema, or list it with a reason if the tool is seeded): ${k}`);
for (const k of gone) console.error(`listed in baseline.json but no longer found (remove it): ${k}`);
if (unlisted.length > 0 || gone.length > 0) process.exit(1);
console.log(
  `portability: ${tools.length} tools checked with the Inspector's --strict; ${found.size} findings, all in seeded contracts and listed in baseline.json`,
);
