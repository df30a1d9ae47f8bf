/**
 * What the quick prompt says when the conversation it had open was deleted (in the main window, say): which one,
 * and that what is sent now starts a new one; when a message sent to it was what found that out, that the message
 * was not sent and is still in the box.
 */
export function deletedWords(title: string | null, isSendRefused: boolean): string {
  const which = title === null ? 'The conversation' : `“${title}”`;
  return isSendRefused
    ? `${which} was deleted, so your message wasn’t sent. It’s still in the box: send it to start a new conversation.`
    : `${which} was deleted. What you send now starts a new conversation.`;
}
