// Defined once in core: the server's pages draw the same initials avatars.
export { AVATAR_COLOURS, avatarColour } from '@inkwell/core';
