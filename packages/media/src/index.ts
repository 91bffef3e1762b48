/** Team icons: checked by content, re-encoded and stored outside the event log. */
export { processTeamIcon, decodeDataUrl, isDataUrl, TEAM_ICON_SIZE, MAX_INPUT_PIXELS, type ProcessedImage } from './team-icon';
export {
  MediaStore,
  imageUrl,
  isImageName,
  IMAGE_NAME_PATTERN,
  IMAGE_URL_PREFIX,
  type StoredImage,
} from './media-store';
export { mediaMigrations } from './migrations';
