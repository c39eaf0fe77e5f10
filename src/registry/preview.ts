import type { ValidBody } from "./validate-body.ts";

/** What a person reads before saying yes: the whole skill text, or each plugin rule spelled out. */
export function renderPreview(body: ValidBody): string[] {
  if (body.kind === "skill") {
    const { name, description, body: text } = body.skill;
    return [`skill ${name}: ${description}`, "─".repeat(40), ...text.split("\n"), "─".repeat(40)];
  }
  const { name, description, deny } = body.manifest;
  return [
    `plugin ${name}: ${description}`,
    ...deny.map((rule) => {
      const when = rule.pathPattern
        ? ` when a path matches /${rule.pathPattern}/`
        : rule.commandPattern
          ? ` when the command matches /${rule.commandPattern}/`
          : "";
      return `  deny ${rule.tools.join(", ")}${when}: ${rule.reason}`;
    }),
  ];
}
