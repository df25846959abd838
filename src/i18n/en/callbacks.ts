import type { Translation } from '../i18n-types';

const callbacks: Translation['callbacks'] = {
  title: 'callbackUrl calls',
  empty: 'No calls yet',
  sendTest: 'Send a test call',
  testQueued: 'The test call is queued',
  refresh: 'Refresh the calls',
  refreshShort: 'Refresh',
  queued: 'The call is queued',
  retry: 'Send again',
  test: 'test',
  attempts: 'Attempts: {count}',
  code: 'Answer: {code}',
  next: 'Next attempt: {at}',
  status: {
    pending: 'Pending',
    delivered: 'Delivered',
    failed: 'Failed',
    'gave-up': 'Gave up',
    refused: 'Address refused',
  },
  errors: {
    notFound: 'No such call',
    notRetryable: 'Only a call that was not delivered can be sent again',
    unknownBlock: 'The project has no such block',
    noUrl: 'The block has no callbackUrl',
  },
  log: {
    secretRotated: 'Project {id}: a new callback signing secret',
    retried: 'Project {id}: call {delivery} sent again',
    testSent: 'Project {id}: a test call of block {block}',
  },
};

export default callbacks;
