import { randomBytes } from 'node:crypto';
import sharp from 'sharp';

/** Test images made with sharp, so no binary fixtures live in the repository. */

export const pngImage = (width = 640, height = 480, background = '#3366cc') =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

/** A JPEG carrying camera EXIF, GPS position and a rotate-90° orientation tag (stored landscape, shown portrait). */
export const jpegWithGps = (width = 300, height = 200) =>
  sharp({ create: { width, height, channels: 3, background: '#cc3333' } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: 'TestCam', Model: 'Leaky 1', Copyright: 'private' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 22/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '4/1 53/1 0/1' },
    })
    .toBuffer();

/** Random noise barely compresses: a PNG of about width*height*3 bytes. */
export const noisePng = (width: number, height: number) =>
  sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
