// The selected token's actor (else the user's character). Simple Worldbuilding keeps an
// actor's attributes in system.attributes.<key> or, grouped, .<group>.<key>, each {value}.
const selectedActor = () => canvas?.tokens?.controlled?.[0]?.actor ?? game?.user?.character ?? null;
const actorValue = (actor, keys) => {
  const wanted = new Set(keys.map((k) => k.toLowerCase()));
  const found = (entries) => entries.find(([k, a]) => wanted.has(k.toLowerCase()) && a && typeof a === "object" && "value" in a);
  const attributes = Object.entries(actor?.system?.attributes ?? {});
  const hit = found(attributes) ?? attributes.map(([, group]) => group && typeof group === "object" && !("value" in group) ? found(Object.entries(group)) : undefined).find(Boolean);
  return hit ? hit[1].value : undefined;
};
