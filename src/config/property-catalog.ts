/** A property suite as the run's flags and its time limit see it. */
export interface CatalogProperty {
  name: string;
  /** Cases when --max-examples is not given. */
  defaultMaxExamples: number;
  /**
   * Most operation-lengths one case waits for one after another: what one case needs of the property's time
   * limit (see property-time-limit.ts).
   */
  chain: number;
  /** The same when generated change sets are applied (--allow-apply-generated without --plan-only); absent: `chain`. */
  chainWhenApplying?: number;
}

/**
 * The property suites as the run's flags describe them. The suites themselves load fast-check, so `run --help`,
 * config resolution and a run without properties read this list instead (a test holds it equal to the suites').
 */
export const PROPERTY_CATALOG: readonly CatalogProperty[] = [
  // Plans a generated change set and follows it to its end; applying, it plans twice at once, applies, then
  // repeats the apply once the first ended.
  { name: 'property/generated-plans', defaultMaxExamples: 20, chain: 1, chainWhenApplying: 3 },
  // Bad input goes to POST /plan only; one the provisioner accepts is followed to its end.
  { name: 'property/malformed-json', defaultMaxExamples: 40, chain: 1 },
  { name: 'property/invalid-change-set', defaultMaxExamples: 40, chain: 1 },
  // The model's own bound on a case (DEFAULT_MAX_CHAIN in suites/properties/model/spec.ts).
  { name: 'property/model-based-runs', defaultMaxExamples: 30, chain: 2 },
];

/** The named property whose cases wait for the most operation-lengths one after another, with that count; undefined for none. */
export function longestChain(names: readonly string[], appliesGenerated: boolean): { name: string; chain: number } | undefined {
  let longest: { name: string; chain: number } | undefined;
  for (const property of PROPERTY_CATALOG) {
    if (!names.includes(property.name)) continue;
    const chain = appliesGenerated ? (property.chainWhenApplying ?? property.chain) : property.chain;
    if (longest === undefined || chain > longest.chain) longest = { name: property.name, chain };
  }
  return longest;
}
