/**
 * A form for a game's Options message, built from its schema: a checkbox
 * triple (default / yes / no) for each optional bool, a text box for each
 * string, a comma list for each repeated string. Unset fields keep the
 * server's defaults. Reading the form gives the proto JSON of the options.
 */
import type { DescField, DescMessage, JsonObject } from "@bufbuild/protobuf";
import { ScalarType } from "@bufbuild/protobuf";
import { h } from "../dom.js";

function label(field: DescField): string {
  return field.name.replace(/_/g, " ");
}

/** The inputs of one Options message (none when it has no fields). */
export function optionsFields(schema: DescMessage): HTMLElement[] {
  return schema.fields.map((field) => {
    const id = `opt-${field.name}`;
    const isBool = field.fieldKind === "scalar" && field.scalar === ScalarType.BOOL;
    const control = isBool
      ? h(
          "select",
          { id, name: field.jsonName, "data-kind": "bool" },
          h("option", { value: "" }, "default"),
          h("option", { value: "true" }, "yes"),
          h("option", { value: "false" }, "no"),
        )
      : h("input", { id, name: field.jsonName, type: "text", "data-kind": field.fieldKind === "list" ? "list" : "string", placeholder: "default" });
    return h("div", { class: "field" }, h("label", { for: id }, label(field)), control);
  });
}

/** The options set in a form, as proto JSON. */
export function readOptions(form: HTMLElement): JsonObject {
  const out: JsonObject = {};
  for (const el of form.querySelectorAll<HTMLInputElement | HTMLSelectElement>("[data-kind]")) {
    const value = el.value.trim();
    if (!value) continue;
    const kind = el.dataset.kind;
    out[el.name] = kind === "bool" ? value === "true" : kind === "list" ? value.split(",").map((s) => s.trim()).filter(Boolean) : value;
  }
  return out;
}
