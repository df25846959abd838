import { useCallback, useEffect, useMemo, useState } from 'react';
import type { Attributes, ProfileField, Reply } from '../../domain/flow';
import type { ProjectContent } from '../../domain/content/model';
import { EDUCATION_LEVELS, GENDERS } from '../../domain/lookups';
import { EndPage, Message, Runner, type EndKind, type SubmitAnswer } from './Runner';
import { PlaceInput, type FindPlaces } from './Place';
import { TextsContext, useTexts } from './Texts';
import { SURVEY_TEXTS, browserLocale, type SurveyLocale } from '../../i18n/survey';
import { SurveyError, surveyApi, type Availability, type Session } from './api';
import { LanguagePicker, LOCALE_KEY, optionsOf, usePageLanguage, useSurveyLanguage } from './Language';
import { localizeContent } from '../../domain/content/languages';

// The respondent page /s/:token. The resume token is kept in local storage under the link's token,
// so closing the tab and opening the link again continues where the respondent was.

type Phase =
  | { kind: 'loading' }
  | { kind: 'notFound' }
  | { kind: 'used' }
  | { kind: 'error'; message: string }
  | { kind: 'closed'; state: Exclude<Availability, 'open'> }
  | { kind: 'profile'; required: boolean; fields: ProfileField[] }
  | { kind: 'running'; resume: string; session: Session & { content: ProjectContent } }
  | { kind: 'end'; end: EndKind };

const resumeKey = (token: string) => `survey:${token}`;

function initialLocale(): SurveyLocale {
  const stored = localStorage.getItem(LOCALE_KEY);
  if (stored === 'ru' || stored === 'en') return stored;
  return browserLocale(navigator.languages ?? [navigator.language]);
}

/** The link's ?lang= (the second wish of the questionnaire's language, after a game's locale). */
const linkLanguage = () => new URLSearchParams(location.search).get('lang');

export function SurveyApp({ token }: { token: string }) {
  const { locale, language, languages, learn, pick } = useSurveyLanguage(initialLocale);
  const [phase, setPhase] = useState<Phase>({ kind: 'loading' });
  const s = SURVEY_TEXTS[locale];
  const running = phase.kind === 'running' ? phase.session.content : null;
  usePageLanguage(running && language ? language : locale, s.title);
  // The questions in the respondent's language (the source where a text has no translation).
  const shown = useMemo(() => running && localizeContent(running, language ?? ''), [running, language]);

  const failed = useCallback(
    (err: unknown) => {
      if (err instanceof SurveyError) {
        const st = err.body.state;
        if (st === 'notStarted' || st === 'paused' || st === 'finished')
          return setPhase({ kind: 'closed', state: st });
        if (err.body.code === 'ticket-used') return setPhase({ kind: 'used' });
        if (err.status === 404) return setPhase({ kind: 'notFound' });
        return setPhase({ kind: 'error', message: err.message });
      }
      setPhase({ kind: 'error', message: SURVEY_TEXTS[locale].offline });
    },
    [locale],
  );

  const enter = useCallback(
    async (resume: string) => {
      const session = await surveyApi.session(resume, locale);
      if (session.status !== 'started') return setPhase({ kind: 'end', end: session.status });
      if (session.state !== 'open' || !session.content)
        return setPhase({ kind: 'closed', state: session.state === 'open' ? 'finished' : session.state });
      learn(optionsOf(session.content), session.language);
      setPhase({ kind: 'running', resume, session: session as Session & { content: ProjectContent } });
    },
    [locale, learn],
  );

  const begin = useCallback(
    // `lang`: the questionnaire language to start in (the server's choice when called from `load`,
    // whose closure predates it; the header's otherwise).
    async (attributes?: Attributes, lang: string | null = language) => {
      setPhase({ kind: 'loading' });
      try {
        const res = await surveyApi.start(token, locale, attributes, lang);
        if (res.state === 'started') {
          localStorage.setItem(resumeKey(token), res.token);
          return await enter(res.token);
        }
        if (res.state === 'quotaFull' || res.state === 'noMatch')
          return setPhase({ kind: 'end', end: res.state });
        if (res.state !== 'open') return setPhase({ kind: 'closed', state: res.state });
      } catch (err) {
        failed(err);
      }
    },
    [token, locale, language, enter, failed],
  );

  const load = useCallback(async () => {
    setPhase({ kind: 'loading' });
    try {
      const resume = localStorage.getItem(resumeKey(token));
      if (resume) {
        try {
          return await enter(resume);
        } catch (err) {
          if (!(err instanceof SurveyError && err.status === 404)) throw err;
          localStorage.removeItem(resumeKey(token));
        }
      }
      const info = await surveyApi.info(token, locale, linkLanguage());
      learn(info.languages, info.language);
      if (info.state !== 'open') return setPhase({ kind: 'closed', state: info.state });
      if (info.used) return setPhase({ kind: 'used' });
      if (info.profile)
        return setPhase({
          kind: 'profile',
          required: !!info.profileRequired,
          fields: info.profileFields ?? [],
        });
      await begin(undefined, info.language ?? null);
    } catch (err) {
      failed(err);
    }
    // Only on opening the page: a language switch must not restart anything.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token]);

  useEffect(() => {
    void load();
  }, [load]);

  const resume = phase.kind === 'running' ? phase.resume : '';
  const submit = useCallback(
    async (at: number, questionId: string, reply: Reply): Promise<SubmitAnswer> => {
      try {
        const res = await surveyApi.answer(resume, locale, {
          at,
          questionId,
          reply,
          ...(language && { language }),
        });
        return { ok: true, end: res.status === 'started' ? null : res.status };
      } catch (err) {
        if (
          err instanceof SurveyError &&
          (err.body.state || err.status === 404 || err.body.code === 'survey-done')
        ) {
          if (err.body.code === 'survey-done') void enter(resume).catch(failed);
          else failed(err);
          return { ok: false, message: err.message };
        }
        return {
          ok: false,
          message: err instanceof SurveyError ? err.message : SURVEY_TEXTS[locale].offline,
        };
      }
    },
    [resume, locale, language, enter, failed],
  );
  const findPlaces = useCallback(
    (kind: 'city' | 'region', search: string, signal: AbortSignal, region?: string) =>
      surveyApi.places(resume, locale, kind, search, signal, region),
    [resume, locale],
  );
  const profilePlaces = useCallback(
    (_kind: 'city' | 'region', search: string, signal: AbortSignal) =>
      surveyApi.linkPlaces(token, locale, search, signal),
    [token, locale],
  );
  const onEnd = useCallback((end: EndKind) => setPhase({ kind: 'end', end }), []);

  let main: React.ReactNode;
  switch (phase.kind) {
    case 'loading':
      main = (
        <p role="status" className="py-10 text-center text-slate-700">
          {s.loading}
        </p>
      );
      break;
    case 'notFound':
      main = <Message title={s.notFoundTitle} text={s.notFound} />;
      break;
    case 'used':
      main = <Message title={s.closedTitle} text={s.usedTicket} />;
      break;
    case 'closed':
      main = <Message title={s.closedTitle} text={s.closed[phase.state]} />;
      break;
    case 'error':
      main = (
        <Message title={s.errorTitle} text={phase.message}>
          <button
            type="button"
            className="mx-auto min-h-11 rounded-lg bg-indigo-700 px-6 font-medium text-white"
            onClick={() => void load()}
          >
            {s.retry}
          </button>
        </Message>
      );
      break;
    case 'profile':
      main = (
        <Profile
          required={phase.required}
          fields={phase.fields}
          onStart={(a) => void begin(a)}
          findPlaces={profilePlaces}
        />
      );
      break;
    case 'end':
      main = <EndPage kind={phase.end} />;
      break;
    case 'running':
      main = (
        <Runner
          content={shown ?? phase.session.content}
          start={phase.session.start}
          initialReplies={phase.session.replies}
          submit={submit}
          findPlaces={findPlaces}
          onEnd={onEnd}
        />
      );
  }

  return (
    <TextsContext.Provider value={{ locale, s }}>
      <div className="mx-auto flex min-h-screen max-w-2xl flex-col px-4 py-4 sm:py-8">
        <header className="mb-6 flex items-center justify-between gap-3">
          <span className="font-semibold text-indigo-700">{s.title}</span>
          <LanguagePicker
            languages={languages}
            value={languages.length > 1 && language ? language : locale}
            onPick={pick}
          />
        </header>
        <main className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-8">{main}</main>
      </div>
    </TextsContext.Provider>
  );
}

/**
 * The profile step of a link whose portraits have conditions (docs/decisions/survey.md): optional on
 * a direct link; required on a target project's link, where the fields the portraits ask about must
 * be answered and there is no "skip" (the answers pick the respondent's portrait).
 */
function Profile({
  required,
  fields,
  onStart,
  findPlaces,
}: {
  required: boolean;
  fields: ProfileField[];
  onStart: (a?: Attributes) => void;
  findPlaces: FindPlaces;
}) {
  const { s } = useTexts();
  const must = (f: ProfileField) => required && fields.includes(f);
  const [gender, setGender] = useState('');
  const [age, setAge] = useState('');
  const [city, setCity] = useState<Reply & { label?: string }>({});
  const [cityError, setCityError] = useState(false);
  const [education, setEducation] = useState('');
  const n = Number(age);
  const ageOk = age === '' || (Number.isInteger(n) && n >= 14 && n <= 99);
  const field = 'flex flex-col gap-1';
  const input = 'min-h-11 rounded-md border border-slate-400 bg-white px-3 text-base';
  return (
    <form
      className="flex flex-col gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        if (!ageOk) return;
        if (!city.text && city.label?.trim()) return setCityError(true);
        onStart({
          gender: (gender || null) as Attributes['gender'],
          age: age === '' ? null : n,
          // Only a city picked from the list (its id); a name typed and not picked is not sent.
          city: city.text || null,
          education: (education || null) as Attributes['education'],
        });
      }}
    >
      <h1 className="text-xl font-semibold">{s.profileTitle}</h1>
      <p className="text-slate-700">{required ? s.profileRequiredIntro : s.profileIntro}</p>
      <label className={field}>
        <span>{s.gender}</span>
        <select
          className={input}
          value={gender}
          required={must('gender')}
          onChange={(e) => setGender(e.target.value)}
        >
          <option value="">{s.notSaid}</option>
          {GENDERS.map((g) => (
            <option key={g} value={g}>
              {s.genders[g]}
            </option>
          ))}
        </select>
      </label>
      <label className={field}>
        <span>{s.age}</span>
        <input
          className={input}
          type="number"
          inputMode="numeric"
          min={14}
          max={99}
          required={must('age')}
          value={age}
          aria-invalid={!ageOk}
          aria-describedby={ageOk ? undefined : 'age-error'}
          onChange={(e) => setAge(e.target.value)}
        />
      </label>
      {!ageOk && (
        <p id="age-error" role="alert" className="text-red-800">
          {s.outOfRange(14, 99)}
        </p>
      )}
      <PlaceInput
        field
        kind="city"
        value={city}
        onChange={(c) => {
          setCity(c);
          setCityError(false);
        }}
        findPlaces={findPlaces}
        describedBy={cityError ? 'city-error' : undefined}
        required={must('city')}
      />
      {cityError && (
        <p id="city-error" role="alert" className="text-red-800">
          {s.pickPlace}
        </p>
      )}
      <label className={field}>
        <span>{s.education}</span>
        <select
          className={input}
          value={education}
          required={must('education')}
          onChange={(e) => setEducation(e.target.value)}
        >
          <option value="">{s.notSaid}</option>
          {EDUCATION_LEVELS.map((x) => (
            <option key={x} value={x}>
              {s.educations[x]}
            </option>
          ))}
        </select>
      </label>
      <div className="flex flex-wrap gap-3">
        <button type="submit" className="min-h-11 rounded-lg bg-indigo-700 px-6 font-medium text-white">
          {s.start}
        </button>
        {!required && (
          <button
            type="button"
            className="min-h-11 rounded-lg border border-slate-400 bg-white px-5 font-medium"
            onClick={() => onStart()}
          >
            {s.skip}
          </button>
        )}
      </div>
    </form>
  );
}
