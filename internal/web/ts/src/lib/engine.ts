// The JSON of the browser's engine and of the server's /api/positions/*
// and /api/analysis (internal/engineweb): the types only.

import type { PositionJSON, Side } from './position';

export interface Landing { side: Side; hole: number }

export interface MoveJSON {
  hole: number;
  landing: Landing;
  captured: number;
  trail: number[];
  notation: string;
  fen: string;
}

export interface EndJSON {
  over: boolean;
  result?: string;
  termination?: string;
  score: [number, number];
}

/** The answer to legal. */
export interface LegalJSON extends PositionJSON, EndJSON {
  fen: string;
  moves: MoveJSON[];
}

/** The answer to play. */
export interface PlayJSON extends PositionJSON, EndJSON {
  hole: number;
  notation: string;
  landing: Landing;
  captured: number;
  trail: number[];
  fen: string;
  legal: MoveJSON[];
}

export interface LineJSON { score: number; mate?: number; pv: number[]; notation: string[] }

export interface InfoJSON {
  type?: string;
  depth: number;
  seldepth?: number;
  multipv: number;
  lines: LineJSON[];
  nodes?: number;
  nps?: number;
  time_ms?: number;
}

export interface TablebaseJSON { result: string; plies?: number }

export interface BestJSON {
  type?: string;
  move: number;
  notation?: string;
  info?: InfoJSON;
  tablebase?: TablebaseJSON;
}

export interface AnalyseOptions { ruleset?: string; multipv?: number; depth?: number; movetime?: number; game?: string }

/** Engine is what createEngine returns: the worker's, or the server's. */
export interface Engine {
  kind: 'wasm' | 'server';
  ready: Promise<boolean>;
  error?: Error;
  analyse(fen: string, o?: AnalyseOptions, onInfo?: ((info: InfoJSON) => void) | null): Promise<BestJSON | null>;
  stop(): void;
  legal(fen: string, ruleset?: string): Promise<LegalJSON>;
  play(fen: string, move: number, ruleset?: string): Promise<PlayJSON>;
  terminate?(): void;
}

/** The module engine-client.js, imported by its hashed URL. */
export interface EngineClient {
  createEngine(opts?: { server?: boolean }): Engine;
  keepOffline(): Promise<boolean>;
}

/** importClient imports engine-client.js by the URL the page gives (#engine-assets), the one the service worker keeps. */
export function importClient(): Promise<EngineClient> {
  const url = (document.getElementById('engine-assets') as HTMLElement).dataset.client as string;
  return import(/* @vite-ignore */ url) as Promise<EngineClient>;
}
