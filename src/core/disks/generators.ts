/** Every size generator Fuel shipped. */
export const FUEL_GENERATORS: readonly string[] = [];
export const isFuelGenerator = (name: string): boolean => FUEL_GENERATORS.includes(name);
