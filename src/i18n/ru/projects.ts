// Russian texts of the projects screens (base locale). Keys are nested camelCase groups.
export default {} as const;
