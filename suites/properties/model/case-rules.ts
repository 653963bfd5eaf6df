/** Rules a model-based case is judged by: everything its plans, applies and reads can break. */
export const MODEL_CASE_RULES: readonly string[] = ['answer.*', 'accepted.*', 'final.*', 'operation.*'];
