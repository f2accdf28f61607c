pub mod weights_file;
