// Russian texts of the games screens (base locale). Keys are nested camelCase groups.
export default {} as const;
