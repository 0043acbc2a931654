/**
 * Every rewards query starts with this key (the campaign service's customer calls): the
 * confirmed opt-in and claim refresh what they change through the keys built on it.
 */
export const rewardsKey = ['campaign', 'rewards'] as const;
