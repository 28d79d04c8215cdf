// The tabular dataset manifest the HTTP benchmark creates its tables under.

/** A dataset with the tabular storage class named `name`. */
export const tabularManifest = (name: string) => ({
  kind: 'catalog.example.io/dataset',
  version: 'v1alpha3',
  metadata: { name },
  spec: {
    storage_controller: 'registry.example.io/storageController/storage-tabular',
    storage_class: 'registry.example.io/storageClass/tabular',
    maintainer: { contact: 'Bench <bench@example.org>', organisation: 'Halocline' },
  },
});
