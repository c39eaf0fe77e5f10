/** 8192 → "8,192". A regex rather than toLocaleString: Intl costs microseconds a call, and this runs for every elided output. */
export const formatCount = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
