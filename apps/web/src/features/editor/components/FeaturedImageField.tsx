import { FEATURED_IMAGE_MAX_BYTES } from '@inkwell/core';
import { ImagePlus, RefreshCw, Trash2 } from 'lucide-react';
import { type ChangeEvent, useEffect, useId, useRef, useState } from 'react';
import { IMAGE_TOO_LARGE } from '../api';

/** The featured image as edited: the saved one, a newly chosen file, or none. */
export type FeaturedImage = { kind: 'saved'; url: string } | { kind: 'file'; file: File } | { kind: 'none' };

export const FEATURED_ACCEPT = '.png,.jpg,.jpeg,image/png,image/jpeg';
const WRONG_TYPE = 'Please choose a PNG, JPG or JPEG image';

/** Client-side check of a chosen featured image (SPEC.md 5: .png, .jpeg, .jpg; 5MB). */
export function featuredImageProblem(file: File): string | null {
  const typeOk = /\.(png|jpe?g)$/i.test(file.name) || file.type === 'image/png' || file.type === 'image/jpeg';
  if (!typeOk) return WRONG_TYPE;
  if (file.size > FEATURED_IMAGE_MAX_BYTES) return IMAGE_TOO_LARGE;
  return null;
}

interface FeaturedImageFieldProps {
  value: FeaturedImage;
  onChange: (value: FeaturedImage) => void;
  disabled?: boolean;
}

/** Featured image: upload, preview, change and remove; PNG/JPG/JPEG up to 5MB. */
export function FeaturedImageField({ value, onChange, disabled = false }: FeaturedImageFieldProps) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [objectUrl, setObjectUrl] = useState<string | null>(null);

  const file = value.kind === 'file' ? value.file : null;
  useEffect(() => {
    if (!file) {
      setObjectUrl(null);
      return;
    }
    const url = URL.createObjectURL(file);
    setObjectUrl(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const preview = value.kind === 'saved' ? value.url : objectUrl;

  const onPick = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = event.target.files?.[0];
    event.target.value = '';
    if (!picked) return;
    const problem = featuredImageProblem(picked);
    setError(problem);
    if (!problem) onChange({ kind: 'file', file: picked });
  };

  const choose = () => inputRef.current?.click();

  return (
    <div>
      <span id={`${id}-label`} className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-300">
        Featured image
      </span>
      <input
        ref={inputRef}
        id={`${id}-input`}
        type="file"
        accept={FEATURED_ACCEPT}
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        disabled={disabled}
        onChange={onPick}
        data-testid="featured-image-input"
      />
      {value.kind !== 'none' && preview ? (
        <div className="overflow-hidden rounded-xl border border-gray-200 dark:border-gray-800">
          <img src={preview} alt="Featured" className="aspect-[2/1] w-full bg-gray-100 object-cover dark:bg-gray-800" />
          <div className="flex flex-wrap items-center gap-2 border-t border-gray-200 bg-white p-2 dark:border-gray-800 dark:bg-gray-900">
            <button
              type="button"
              onClick={choose}
              disabled={disabled}
              className="inline-flex items-center gap-1.5 rounded-lg px-3 py-1.5 text-sm font-medium text-gray-700 hover:bg-gray-100 disabled:opacity-60 dark:text-gray-200 dark:hover:bg-gray-800"
            >
              <RefreshCw size={16} aria-hidden="true" />
              Change image
            </button>
            <button
              type="button"
              onClick={() => {
                setError(null);
                onChange({ kind: 'none' });
              }}
              disabled={disabled}
              className="inline-flex items-center gap-1.5 rounded-lg px-3 py-1.5 text-sm font-medium text-red-600 hover:bg-red-50 disabled:opacity-60 dark:text-red-400 dark:hover:bg-red-500/10"
            >
              <Trash2 size={16} aria-hidden="true" />
              Remove image
            </button>
            <span className="ml-auto px-2 text-xs text-gray-500 dark:text-gray-400">PNG, JPG or JPEG · Max 5MB</span>
          </div>
        </div>
      ) : (
        <button
          type="button"
          onClick={choose}
          disabled={disabled}
          aria-describedby={`${id}-hint`}
          className={`flex w-full flex-col items-center justify-center gap-2 rounded-xl border-2 border-dashed px-4 py-8 text-center transition hover:border-indigo-400 hover:bg-indigo-50/50 disabled:opacity-60 dark:hover:border-indigo-500 dark:hover:bg-indigo-500/5 ${
            error ? 'border-red-400 dark:border-red-500' : 'border-gray-300 dark:border-gray-700'
          }`}
        >
          <ImagePlus size={28} className="text-indigo-500 dark:text-indigo-400" aria-hidden="true" />
          <span className="text-sm font-semibold text-gray-800 dark:text-gray-100">Upload featured image</span>
          <span id={`${id}-hint`} className="text-xs text-gray-500 dark:text-gray-400">
            PNG, JPG or JPEG · Max 5MB
          </span>
        </button>
      )}
      <p role="alert" className="mt-1 text-xs text-red-600 empty:hidden dark:text-red-400">
        {error}
      </p>
    </div>
  );
}
