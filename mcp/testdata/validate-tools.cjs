// Validates the tool schemas a domsnap mcp server published in tools/list
// with Ajv, a validator that shares no code with the Go one, the way a
// Node client would: each schema must compile on its own (a reference to
// another file fails), and each case must get the verdict the Go side
// expects. Input: a JSON file {"tools":[...],"cases":[{"tool","schema",
// "instance","valid"}]}. Output: one JSON line with the failures.
"use strict";
const fs = require("fs");
const Ajv2020 = require("ajv/dist/2020").default;

const input = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const failures = [];
const compiled = {};
for (const tool of input.tools) {
  for (const which of ["inputSchema", "outputSchema"]) {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    try {
      compiled[tool.name + "." + which] = ajv.compile(tool[which]);
    } catch (e) {
      failures.push(tool.name + " " + which + " does not compile alone: " + e.message);
    }
    if (tool[which] && tool[which].type !== "object") {
      failures.push(tool.name + " " + which + " is not an object schema");
    }
  }
}
let checked = 0;
for (const c of input.cases) {
  const v = compiled[c.tool + "." + c.schema];
  if (!v) {
    failures.push("no compiled schema for " + c.tool + " " + c.schema);
    continue;
  }
  const ok = v(c.instance);
  checked++;
  if (ok !== c.valid) {
    failures.push(c.tool + " " + c.schema + " case " + checked + ": valid=" + ok + ", want " + c.valid + " " + JSON.stringify(v.errors || []).slice(0, 300));
  }
}
process.stdout.write(JSON.stringify({ tools: input.tools.length, checked, failures }) + "\n");
process.exit(failures.length ? 1 : 0);
