import { createContext, use, useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import type { TalkDocument } from '@talkbooth/protocol';
import { requestJson } from '../lib/api-client';
import { logger } from '../lib/logger';
import { parseTalkCollection } from '../lib/wire-checks';
import { useClientConfigState } from './client-config';

/** The business's texts from its talk collection (the document with id "product"). */
export interface ProductContent {
  /** The business's name, e.g. "Riverside Clinic". */
  title: string | null;
  tagline: string | null;
  /** A contact for help, e.g. an e-mail address. */
  support: string | null;
}

const EMPTY_CONTENT: ProductContent = { title: null, tagline: null, support: null };

const ProductContentContext = createContext<ProductContent>(EMPTY_CONTENT);

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

export function contentFromDocuments(documents: readonly TalkDocument[]): ProductContent {
  const product = documents.find((doc) => doc.id === 'product');
  if (!product) return EMPTY_CONTENT;
  return {
    title: text(product.title),
    tagline: text(product.tagline),
    support: text(product.support),
  };
}

export async function fetchTalkCollection(product: string): Promise<TalkDocument[]> {
  const body = await requestJson(`/api/collections/talk-${encodeURIComponent(product)}`);
  const documents = parseTalkCollection(body);
  if (!documents) throw new TypeError(`The talk-${product} collection has an unexpected shape.`);
  return documents;
}

interface ProductContentProviderProps {
  children: ReactNode;
  /** Fixed documents (tests); when given, nothing is fetched. */
  documents?: TalkDocument[];
}

/**
 * Reads the product's talk collection once the configuration is known, logs each document
 * at debug level, and offers the product document's texts. A failure is only a warning: the
 * app works without these texts.
 */
export function ProductContentProvider({ children, documents }: ProductContentProviderProps) {
  const { config, settled } = useClientConfigState();
  const [loaded, setLoaded] = useState<ProductContent>(EMPTY_CONTENT);

  useEffect(() => {
    if (documents || !settled) return;
    let active = true;
    fetchTalkCollection(config.product).then(
      (docs) => {
        for (const doc of docs) logger.debug(`talk-${config.product} document`, doc);
        if (active) setLoaded(contentFromDocuments(docs));
      },
      (error: unknown) => {
        logger.warn(`Could not load the talk-${config.product} collection`, error);
      },
    );
    return () => {
      active = false;
    };
  }, [documents, settled, config.product]);

  const value = documents ? contentFromDocuments(documents) : loaded;
  return <ProductContentContext value={value}>{children}</ProductContentContext>;
}

export function useProductContent(): ProductContent {
  return use(ProductContentContext);
}
