// What the page scripts share through window: board.js's send on the game
// websocket, which social.js uses.
export {};

declare global {
  interface Window {
    toguzSend?: (m: { type: string; [k: string]: unknown }) => void;
  }
}
