// Russian texts of the reports screens (base locale). Keys are nested camelCase groups.
export default {} as const;
