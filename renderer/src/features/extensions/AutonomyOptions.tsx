/** The autonomy levels, in the person's words; `confirm` first, since it is what an MCP tool does unless told. */
export function AutonomyOptions() {
  return (
    <>
      <option value="confirm">ask me first (confirm)</option>
      <option value="review">ask me, with a review (review)</option>
      <option value="notify">run, then tell me (notify)</option>
      <option value="auto">run without asking (auto)</option>
    </>
  );
}
