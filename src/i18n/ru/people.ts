// Russian texts of the people screens (base locale). Keys are nested camelCase groups.
export default {} as const;
