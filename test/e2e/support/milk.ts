/** An add_task call for milk, with what the model states with every side-effect call (its confidence among it). */
export const MILK_CALL = {
  description: 'Buy milk',
  confidence: 0.95,
  intent: 'add task',
  reasoning: 'user asked',
  assumptions: [],
};
