// Russian texts of the pricing screens (base locale). Keys are nested camelCase groups.
export default {} as const;
