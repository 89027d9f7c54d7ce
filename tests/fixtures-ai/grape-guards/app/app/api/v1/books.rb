module Shelf
  module V1
    class Books < Grape::API
      version "v1", using: :path

      before do
        authenticate!
      end

      resource :books do
        desc "List books"
        params do
          optional :author, type: String
        end
        get do
          Book.where(author: params[:author])
        end

        desc "Delete a book"
        delete ":id" do
          authorize! :destroy, Book.find(params[:id])
          current_user.books.destroy(params[:id])
        end
      end
    end
  end
end
