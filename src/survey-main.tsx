import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { SurveyApp } from './views/survey/SurveyApp';
import './styles.css';

// The respondent page's own entry (survey.html, served for /s/:token): no router, no back-office
// dictionary, no editor. The token is the last part of the path.

const token = decodeURIComponent(location.pathname.replace(/^\/s\//, '').split('/')[0] ?? '');
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <SurveyApp token={token} />
  </StrictMode>,
);
