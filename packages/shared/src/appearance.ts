/** Layout settings of spec §3 "Theme settings". */
export const themeModes = ['light', 'dark'] as const;
export type ThemeMode = (typeof themeModes)[number];

export const menuSizes = ['default', 'condensed', 'sm-hover', 'sm-hover-active', 'hidden'] as const;
export type MenuSize = (typeof menuSizes)[number];
