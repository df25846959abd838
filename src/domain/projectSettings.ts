import * as v from 'valibot';
import { int32Max } from './validation';
import { PRIORITY_MAX, PRIORITY_MIN, required } from './projects';

/** The speeder rule (issue 31): flagged under this share of the median completion time. */
export const SPEEDER_PERCENT_DEFAULT = 50;
export const SPEEDER_PERCENT_MIN = 10;
export const SPEEDER_PERCENT_MAX = 90;

// Project settings (spec section 3): groups grp_basic and grp_reporting, keys set_priority,
// set_report_fill_online, set_stat_fill_online. The spec names them only; what each does is our
// decision (docs/decisions/projects.md). set_priority is the project's priority column itself, so
// the list and the settings can never show two different priorities. Labels: i18n
// projects.settings.<key> and projects.settingsGroups.<group>.

export const SETTINGS_GROUPS = ['grp_basic', 'grp_reporting'] as const;
export type SettingsGroup = (typeof SETTINGS_GROUPS)[number];

export const SETTING_KEYS = [
  'set_priority',
  'set_report_fill_online',
  'set_stat_fill_online',
  'set_speeder_percent',
] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

export type SettingDefinition =
  | {
      key: 'set_priority' | 'set_speeder_percent';
      group: SettingsGroup;
      kind: 'integer';
      min: number;
      max: number;
      default: number;
    }
  | {
      key: 'set_report_fill_online' | 'set_stat_fill_online';
      group: SettingsGroup;
      kind: 'boolean';
      default: boolean;
    };

export const SETTINGS: readonly SettingDefinition[] = [
  // Higher runs first when several projects compete for the same respondents.
  {
    key: 'set_priority',
    group: 'grp_basic',
    kind: 'integer',
    min: PRIORITY_MIN,
    max: PRIORITY_MAX,
    default: 0,
  },
  // The report is recomputed as answers arrive, rather than once when the survey ends.
  { key: 'set_report_fill_online', group: 'grp_reporting', kind: 'boolean', default: true },
  // The response statistics (counts per portrait) are updated as answers arrive.
  { key: 'set_stat_fill_online', group: 'grp_reporting', kind: 'boolean', default: true },
  // Issue 31: a completed respondent faster than this share of the median is a speeder.
  {
    key: 'set_speeder_percent',
    group: 'grp_reporting',
    kind: 'integer',
    min: SPEEDER_PERCENT_MIN,
    max: SPEEDER_PERCENT_MAX,
    default: SPEEDER_PERCENT_DEFAULT,
  },
];

export interface ProjectSettingsValues {
  set_priority: number;
  set_report_fill_online: boolean;
  set_stat_fill_online: boolean;
  set_speeder_percent: number;
}

export const DEFAULT_SETTINGS: ProjectSettingsValues = {
  set_priority: 0,
  set_report_fill_online: true,
  set_stat_fill_online: true,
  set_speeder_percent: SPEEDER_PERCENT_DEFAULT,
};

const bool = v.boolean('type');

export const ProjectSettingsBody = v.pipe(
  v.strictObject(
    {
      pid: required(
        v.pipe(v.number('type'), v.integer('integer'), v.minValue(1, 'positiveInteger'), int32Max),
      ),
      settings: required(
        v.strictObject(
          {
            set_priority: v.optional(
              v.pipe(
                v.number('integer'),
                v.integer('integer'),
                v.minValue(PRIORITY_MIN, 'positiveInteger'),
                v.maxValue(PRIORITY_MAX, 'tooBig'),
              ),
            ),
            set_report_fill_online: v.optional(bool),
            set_stat_fill_online: v.optional(bool),
            set_speeder_percent: v.optional(
              v.pipe(
                v.number('integer'),
                v.integer('integer'),
                v.minValue(SPEEDER_PERCENT_MIN, 'tooSmall'),
                v.maxValue(SPEEDER_PERCENT_MAX, 'tooBig'),
              ),
            ),
          },
          'unknownField',
        ),
      ),
    },
    'unknownField',
  ),
  v.check((b) => Object.keys(b.settings).length > 0, 'required'),
);
export type ProjectSettingsBody = v.InferOutput<typeof ProjectSettingsBody>;

/** GET /project/settings: each setting with its translated label. */
export type SettingInfo = SettingDefinition & { name: string; description: string };
export interface SettingsGroupInfo {
  key: SettingsGroup;
  name: string;
}
