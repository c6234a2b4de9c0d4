/** The answer pack as it crosses the bridge: the receipt PDF in base64 and the letter's text, for the window to save. */
export interface AnswerPackFiles {
  receipt: { fileName: string; mimeType: 'application/pdf'; contentBase64: string };
  letter: { fileName: string; mimeType: 'text/plain;charset=utf-8'; content: string };
  /** The acts the receipt covers, and the audit chain's head it states. */
  acts: number;
  headHash: string | null;
  chainVerified: boolean;
}
