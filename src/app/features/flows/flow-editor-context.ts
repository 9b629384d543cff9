import type { ComboboxItem } from '@mantine/core';
import { createContext, useContext } from 'react';
import type { FlowStepStats, FlowStepType } from '../../../shared/contract';
import type { DraftStep, ListOwner } from './flow-draft';
import type { FlowNames } from './flow-labels';

/** What the editor picks from: the page reads them (features do not read each other's data). */
export interface FlowPickers {
  keywords: readonly ComboboxItem[];
  groups: readonly ComboboxItem[];
  segments: readonly ComboboxItem[];
  templates: readonly ComboboxItem[];
  /** The field names the team's contacts carry (suggestions: any name may be typed). */
  fieldSuggestions: readonly string[];
}

export const NO_PICKERS: FlowPickers = { keywords: [], groups: [], segments: [], templates: [], fieldSuggestions: [] };

export interface FlowEditorActions {
  pickers: FlowPickers;
  names: FlowNames;
  readOnly: boolean;
  /** A step's counts: the latest read of the saved step, else what the draft holds (none for a new step). */
  statsOf: (step: DraftStep) => FlowStepStats | undefined;
  /** The first message of the 422 (the contract's check, or the API's) at a request path, e.g. `steps.1.then.0.template_uuid`. */
  errorAt: (path: string) => string | undefined;
  update: (key: string, change: (step: DraftStep) => DraftStep) => void;
  remove: (key: string) => void;
  move: (key: string, by: -1 | 1) => void;
  add: (owner: ListOwner, type: FlowStepType) => void;
}

export const FlowEditorContext = createContext<FlowEditorActions | null>(null);

export function useFlowEditor(): FlowEditorActions {
  const actions = useContext(FlowEditorContext);
  if (!actions) throw new Error('useFlowEditor outside a FlowEditor');
  return actions;
}
