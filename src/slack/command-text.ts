/** Reads the text after `/fleet`: the subcommand's word and its arguments. */

/** The first word in lower case (`help` when there is none) and the words after it as typed. */
export function splitFleetCommand(text: string): { word: string; args: string[] } {
  const words = text.trim().split(/\s+/).filter(Boolean);
  return { word: words[0]?.toLowerCase() ?? 'help', args: words.slice(1) };
}
