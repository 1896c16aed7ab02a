// What rulepress's Foundry documents use beyond core, declared the way the
// foundry-vtt-types docs describe it (src/configuration/configuration.d.mts).

/** A Simple Worldbuilding attribute (its template.json; `dtype` from module/constants.js). */
interface WorldbuildingAttribute {
  key?: string;
  value: unknown;
  label?: string;
  dtype?: "String" | "Number" | "Boolean" | "Formula" | "Resource";
  min?: number;
  max?: number;
}

/** Simple Worldbuilding's Item type `item` (its template.json). */
interface WorldbuildingItemSource {
  description: string;
  quantity: number;
  weight: number | null;
  attributes: Record<string, WorldbuildingAttribute | Record<string, WorldbuildingAttribute>>;
  groups: Record<string, { key?: string; label?: string; dtype?: string }>;
}

declare module "fvtt-types/configuration" {
  interface SourceConfig {
    Item: { item: WorldbuildingItemSource };
  }

  interface FlagConfig {
    Item: { rulepress: { ruleset: string; id: string; profile: Record<string, unknown> } };
    ChatMessage: { rulepress: Record<string, unknown> };
    /** A macro's last inputs, under the module's id (`rulepress-<ruleset>`), by macro. */
    User: { [module: `rulepress-${string}`]: Record<string, Record<string, unknown>> };
  }
}

export {};
