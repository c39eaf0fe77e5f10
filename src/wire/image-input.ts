// Models that take no image input (text-only reasoning minis, the oldest chat models); every other is sent images.
const TEXT_ONLY = [/^o1-mini/, /^o3-mini/, /^gpt-3\.5/, /^gpt-4(?:-0314|-0613|-32k.*)?$/];

/** Whether `model` reads `input_image` content. */
export const takesImages = (model: string): boolean => !TEXT_ONLY.some((pattern) => pattern.test(model));

/** The line telling a person that `model` will not be shown the `count` images they gave, or undefined when it will (or there are none). */
export const imagesNotTaken = (model: string, count: number): string | undefined =>
  count === 0 || takesImages(model) ? undefined : `${model} takes no images: it is told of ${count === 1 ? "the image" : `the ${count} images`} in a line, not shown ${count === 1 ? "it" : "them"}`;
