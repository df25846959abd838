// Russian texts of the editor screens (base locale). Keys are nested camelCase groups.
export default {} as const;
