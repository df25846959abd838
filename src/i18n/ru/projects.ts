// Projects list, templates, statuses, settings and moderation.
export default {
  notEditable: 'Проект нельзя изменить в текущем статусе',
} as const;
