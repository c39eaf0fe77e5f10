// Models that take no image input (text-only reasoning minis, the oldest chat models); every other is sent images.
const TEXT_ONLY = [/^o1-mini/, /^o3-mini/, /^gpt-3\.5/, /^gpt-4(?:-0314|-0613|-32k.*)?$/];

/** Whether `model` reads `input_image` content. */
export const takesImages = (model: string): boolean => !TEXT_ONLY.some((pattern) => pattern.test(model));
